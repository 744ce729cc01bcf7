/**
 * The app's one CSV reader (decision 36), serving the bulk importer (lenient, people's files) and
 * offline review of our exports (strict RFC 4180): the same grammar, two readings.
 */
import { describe, expect, it } from 'vitest'
import { CsvSyntaxError, detectDelimiter, readCsv } from '../../../../../../electron/main/services/files/csv-reader'

describe('the grammar both readings share', () => {
  it('keeps text as text, reads quoted delimiters, doubled quotes and line breaks, and numbers records by line', () => {
    const text = '\uFEFFa,b,c\r\n0123,"x, y","say ""hi"""\n"multi\nline",03/04,\r\n\r\nlast,,'
    expect(readCsv(text)).toEqual({
      records: [['a', 'b', 'c'], ['0123', 'x, y', 'say "hi"'], ['multi\nline', '03/04', ''], [''], ['last', '', '']],
      lines: [1, 2, 3, 5, 6],
    })
  })

  it('takes semicolons and tabs', () => {
    expect(readCsv('a;b\n1;2', { delimiter: ';' }).records).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
    expect(readCsv('a\tb\n1\t2', { delimiter: '\t' }).records).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
    expect(detectDelimiter('Title\na;b;c\n1;2;3\n')).toBe(';')
    expect(detectDelimiter('a,b\n"x;y",2\n')).toBe(',')
  })

  it('is bounded in records and fields, naming the line', () => {
    expect(() => readCsv('a\nb\nc', { maxRecords: 2 })).toThrow('line 3: more than 2 rows')
    expect(() => readCsv('a,b\n1,2,3', { maxFields: 2 })).toThrow(
      expect.objectContaining({ line: 2, problem: 'too_many_fields' }),
    )
    expect(() => readCsv('a,"b\nc')).toThrow(expect.objectContaining({ line: 1, problem: 'unterminated_quote' }))
  })
})

describe('lenient, for files people made (the importer)', () => {
  it('keeps a quote inside a field and text after a closing quote, trims, and leaves blank records out', () => {
    expect(readCsv('He said "no",x\n"7" feet,y\n , \n  z  ,"  w "', { trim: true, skipEmpty: true })).toEqual({
      records: [
        ['He said "no"', 'x'],
        ['7 feet', 'y'],
        ['z', 'w'],
      ],
      lines: [1, 2, 4],
    })
  })
})

describe('strict, for our own exports (offline review)', () => {
  it('calls a stray quote or text after a closing quote damage, with its line', () => {
    const strict = { strict: true }
    expect(() => readCsv('a,b\nx"y,1', strict)).toThrow(
      new CsvSyntaxError(2, 'quote_in_unquoted_field', 'a quote inside an unquoted field'),
    )
    expect(() => readCsv('a,b\n"x"y,1', strict)).toThrow('line 2: text after a closing quote')
    expect(readCsv('a,"b ""c"""\r\n', strict).records).toEqual([['a', 'b "c"']])
  })
})
