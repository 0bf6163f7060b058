// What replaces a removed document in the knowledge base. The service has no delete, only update: a
// removed document is updated with a short placeholder of its own format (valid JSON for .json, a
// minimal HTML page, a CSV with its header line, …) saying it was removed and by which commit, so
// retrieval no longer finds its old content. Pure: text in, text out.
//
// The placeholder does not repeat the document's name or title: a question about the old topic must
// not find the placeholder either.
import path from 'node:path'

type Format = (note: string, commit: string | undefined) => string

const escapeMarkup = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const csvField = (text: string): string => `"${text.replace(/"/g, '""')}"`

const markdown: Format = (note) => `# Removed\n\n${note}\n`
const plainText: Format = (note) => `${note}\n`
const html: Format = (note) =>
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Removed</title>\n</head>\n' +
  `<body>\n<p>${escapeMarkup(note)}</p>\n</body>\n</html>\n`
const record = (note: string, commit: string | undefined) => ({
  removed: true,
  note,
  ...(commit ? { commit } : {}),
})

// Written without the YAML library, which the index action loads only for front matter (its ~290 KB kept
// in the bundle's main file were compiled at every start): every value as a JSON scalar, which YAML reads
// as the same string or boolean (a commit id of digits only stays a string).
function yamlRecord(note: string, commit: string | undefined): string {
  const lines = Object.entries(record(note, commit)).map(
    ([key, value]) => `${key}: ${JSON.stringify(value)}\n`,
  )
  return lines.join('')
}

// By extension (lower case). Formats without an entry (PDF, Office, images, archives, unknown ones)
// get no placeholder: no valid empty document of them can be written honestly here.
const FORMATS: Readonly<Record<string, Format>> = {
  md: markdown,
  markdown,
  // Plain markdown without JSX or expressions is valid MDX.
  mdx: markdown,
  txt: plainText,
  text: plainText,
  rst: (note) => `Removed\n=======\n\n${note}\n`,
  adoc: (note) => `= Removed\n\n${note}\n`,
  asciidoc: (note) => `= Removed\n\n${note}\n`,
  html,
  htm: html,
  xml: (note) => `<?xml version="1.0" encoding="UTF-8"?>\n<removed>${escapeMarkup(note)}</removed>\n`,
  json: (note, commit) => `${JSON.stringify(record(note, commit), null, 2)}\n`,
  yaml: yamlRecord,
  yml: yamlRecord,
  csv: (note, commit) => `removed,note,commit\ntrue,${csvField(note)},${csvField(commit ?? '')}\n`,
  tsv: (note, commit) => `removed\tnote\tcommit\ntrue\t${note}\t${commit ?? ''}\n`,
}

/** The sentence every placeholder carries. */
export function removalNote(commit: string | undefined): string {
  return commit
    ? `This document was removed from the repository by commit ${commit}; its earlier content no longer applies.`
    : 'This document was removed from the repository; its earlier content no longer applies.'
}

/**
 * The placeholder of a removed document, in the format its name's extension says, or undefined when
 * no valid placeholder of that format can be made (the document must then be removed by hand).
 * `commit` is the commit id the removal was synced at (a hex id, or undefined when unknown).
 */
export function placeholderFor(name: string, commit: string | undefined): string | undefined {
  const extension = path.posix.extname(name).slice(1).toLowerCase()
  if (!Object.hasOwn(FORMATS, extension)) return undefined
  return FORMATS[extension](removalNote(commit), commit)
}
