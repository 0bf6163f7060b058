import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { BudgetedDocument, type CollapsedList, inline } from '../../src/report/markdown.js'

/** A list of `count` lines of the same text, counting the lines it is asked to make. */
function countingList(summaryHtml: string, count: number, text = 'aaaaaaa') {
  const list = {
    summaryHtml,
    count,
    made: 0,
    lineAt: () => {
      list.made++
      return text
    },
    note: (missing: number) => `_${missing} more not shown._`,
  }
  return list satisfies CollapsedList
}

/** Per `<details>` block of a rendered document: its summary, the lines shown, the count its note gives. */
function blocks(markdown: string) {
  return markdown
    .split('</details>')
    .slice(0, -1)
    .map((block) => ({
      summary: /<summary>(.*)<\/summary>/.exec(block)![1],
      shown: block.split('\n').filter((line) => line.startsWith('- ')).length,
      missing: Number(/_(\d+) more not shown/.exec(block)?.[1] ?? 0),
    }))
}

describe('BudgetedDocument lists', () => {
  it('makes the lines it shows and one more, not every line of a long list', () => {
    const list = countingList('Uploaded', 100_000)
    const doc = new BudgetedDocument(50_000)
    doc.addAll(['### Everything else\n', list])
    const [block] = blocks(doc.toString())
    expect(block.shown).toBeGreaterThan(4000)
    expect(block.shown + block.missing).toBe(100_000)
    expect(list.made).toBeLessThanOrEqual(block.shown + 1)
    expect(Buffer.byteLength(doc.toString())).toBeLessThanOrEqual(50_000)
  })

  it('counts as used exactly the bytes it renders, lists cut or whole, in any script', () => {
    const line = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 4000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), line), { minLength: 1, maxLength: 3 }),
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        (limit, lists, heading) => {
          const doc = new BudgetedDocument(limit)
          doc.addAll([
            heading,
            ...lists.map(([count, text], index) => countingList(`L${index}`, count, text)),
          ])
          expect(doc.remaining).toBe(limit - Buffer.byteLength(`${doc.toString()}\n`))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('shows a list that fits whole, each line made once', () => {
    const list = countingList('Uploaded', 2000)
    const doc = new BudgetedDocument(1_000_000)
    doc.addAll([list])
    expect(blocks(doc.toString())).toEqual([{ summary: 'Uploaded', shown: 2000, missing: 0 }])
    expect(list.made).toBe(2000)
  })

  it('gives the longer of two cut lists the odd byte whatever their order, with exact counts', () => {
    // Both lists are far over the room; they split it, and the one that needs more takes the odd byte.
    // Over 20 consecutive limits, that byte decides one more line of 10 bytes at least once.
    let decided = 0
    for (let limit = 3000; limit < 3020; limit++) {
      const first = new BudgetedDocument(limit)
      first.addAll([countingList('A', 1000), countingList('B', 900)])
      const second = new BudgetedDocument(limit)
      second.addAll([countingList('B', 900), countingList('A', 1000)])
      const [a, b] = blocks(first.toString())
      expect(a.shown + a.missing).toBe(1000)
      expect(b.shown + b.missing).toBe(900)
      expect(a.shown).toBeGreaterThanOrEqual(b.shown)
      if (a.shown > b.shown) decided++
      expect(blocks(second.toString())).toEqual([b, a])
      expect(Buffer.byteLength(first.toString())).toBeLessThanOrEqual(limit)
    }
    expect(decided).toBeGreaterThan(0)
  })
})

describe('inline', () => {
  // Every printable ASCII character, controls and a few others: names are mostly plain, and a plain name
  // is taken as it is without going through the escaping steps.
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  const text = fc.string({
    unit: fc.constantFrom(...ascii, '\u0007', '\u007f', '\u202e', 'é', '😀', '\n'),
    maxLength: 30,
  })

  it('gives a name the same text whether or not it takes the way for plain names', () => {
    // A trailing `*` sends any text through every escaping step, each of which works character by character.
    fc.assert(
      fc.property(text, (name) => inline(name) === inline(`${name}*`).slice(0, -2)),
      {
        numRuns: 2000,
      },
    )
  })

  it('escapes every character that markdown or HTML would read', () => {
    expect(inline('a_b*c[d]#e~f!g+h\\i&j<k>l|m`n@o')).toBe(
      'a\\_b\\*c\\[d\\]\\#e\\~f\\!g\\+h\\\\i&amp;j&lt;k&gt;l&#124;m&#96;n@\u200bo',
    )
  })
})
