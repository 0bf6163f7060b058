// How a message names a setting. The config words every problem with the names of the front end that
// read it: the actions say `Input "flow-id"`, the CLI says `--flow-id` (or the variable that holds a key).

export interface SettingNames {
  /** The setting as the subject of a sentence: `Input "flow-id"`, `--flow-id`. */
  subject(input: string): string
  /** The setting inside a sentence: `"flow-id"`, `--flow-id`. */
  ref(input: string): string
  /** The setting after a verb or preposition: `the input "public-key"`, `--public-key`. */
  the(input: string): string
  /** Two settings as one subject: `Inputs "files" and "urls"`, `--files and --urls`. */
  pair(first: string, second: string): string
  /** A yes/no setting that is on: `"dry-run" is true`, `--dry-run is given`. */
  on(input: string): string
}

export const ACTION_INPUT_NAMES: SettingNames = {
  subject: (input) => `Input "${input}"`,
  ref: (input) => `"${input}"`,
  the: (input) => `the input "${input}"`,
  pair: (first, second) => `Inputs "${first}" and "${second}"`,
  on: (input) => `"${input}" is true`,
}
