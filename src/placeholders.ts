// What replaces a removed document in the knowledge base. The service has no delete, only update: a
// removed document is updated with a placeholder of its own format that has no text for retrieval to
// find. A sentence saying "this document was removed" is itself found: after a deletion, unrelated
// questions cited the removed names, and answers lost similarity (issue 38). So the body holds no word at
// all; the commit that removed it goes where the format keeps metadata, which a reader of the document
// sees and retrieval does not search (markdown's front matter, an HTML page's <head>, an XML attribute,
// AsciiDoc's attribute entries), or nowhere when the format has no such place (plain text, CSV, JSON,
// YAML, reStructuredText: any field of theirs is content). Pure: text in, text out.
//
// The placeholder never repeats the document's name or title: a question about the old topic must not
// find it either.
import path from 'node:path'

type Format = (commit: string | undefined) => string

const escapeMarkup = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// YAML front matter written without the YAML library, which the index action loads only to read front
// matter: the commit as a JSON string, which YAML reads as the same string (a commit id of digits only
// stays a string).
const markdown: Format = (commit) =>
  `---\nremoved: true\n${commit ? `commit: ${JSON.stringify(commit)}\n` : ''}---\n`

const html: Format = (commit) =>
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Removed</title>\n' +
  (commit ? `<meta name="removed-by-commit" content="${escapeMarkup(commit)}">\n` : '') +
  '</head>\n<body></body>\n</html>\n'

const asciidoc: Format = (commit) => `:removed: ${commit ?? ''}`.trimEnd() + '\n'

/** No metadata in the format: an empty document of it (a line break, so the upload is not 0 bytes). */
const blank: Format = () => '\n'

// By extension (lower case). Formats without an entry (PDF, Office, images, archives, unknown ones)
// get no placeholder: no valid empty document of them can be written honestly here.
const FORMATS: Readonly<Record<string, Format>> = {
  md: markdown,
  markdown,
  // Front matter is MDX's as well (Docusaurus, Astro, remark-frontmatter).
  mdx: markdown,
  txt: blank,
  text: blank,
  rst: blank,
  adoc: asciidoc,
  asciidoc,
  html,
  htm: html,
  xml: (commit) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<removed${commit ? ` commit="${escapeMarkup(commit)}"` : ''}/>\n`,
  json: () => '{}\n',
  yaml: () => '{}\n',
  yml: () => '{}\n',
  csv: blank,
  tsv: blank,
}

/** The extensions (lower case, without the dot) that have a placeholder. */
export const PLACEHOLDER_EXTENSIONS: readonly string[] = Object.keys(FORMATS)

/**
 * The placeholder of a removed document, in the format its name's extension says, or undefined when
 * no valid placeholder of that format can be made (the document must then be removed by hand).
 * `commit` is the commit id the removal was synced at (a hex id, or undefined when unknown), kept in
 * the format's metadata where it has some.
 */
export function placeholderFor(name: string, commit: string | undefined): string | undefined {
  const extension = path.posix.extname(name).slice(1).toLowerCase()
  if (!Object.hasOwn(FORMATS, extension)) return undefined
  return FORMATS[extension](commit)
}
