// Preloaded (`node --import`) into a process whose memory a test measures: as the process ends, it writes
// its peak resident set in kB (the kernel's own figure, so measuring costs the process nothing) to the
// file named by KB_SYNC_PEAK_RSS_FILE.
import { writeFileSync } from 'node:fs'

const file = process.env.KB_SYNC_PEAK_RSS_FILE
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
