/** Name checks classed like Confirmation of Payee (decision 37): match, close match (and why), no match. */
import { describe, expect, it } from 'vitest'
import { checkName, nameTokens } from '../../../../shared/rules/name-check'
import { namesMatch } from '../../../../shared/rules/common'

describe('match', () => {
  it.each([
    ['Adaeze Okafor', 'ADAEZE OKAFOR'],
    ['Adaeze  Okafor ', 'adaeze okafor'],
    ['Mary-Jane Obi', 'MARY JANE OBI'],
    ['Adéwálé Ọ̀ṣun', 'ADEWALE OSUN'],
    ['Mr Tunde Adeyemi', 'TUNDE ADEYEMI'],
    ['Chief Emeka Eze', 'Emeka Eze'],
    ['Acme Supplies Ltd', 'ACME SUPPLIES LIMITED'],
    ["O'Brien Kamau", 'O BRIEN KAMAU'],
  ])('%j and %j', (sheet, bank) => expect(checkName(sheet, bank)).toEqual({ result: 'match', reasons: [] }))
})

describe('close match, with what differs', () => {
  it.each([
    ['Adaeze Okafor', 'OKAFOR ADAEZE', ['order']],
    ['A. Okafor', 'ADAEZE OKAFOR', ['initials']],
    ['Adaeze N. Okafor', 'ADAEZE NGOZI OKAFOR', ['initials']],
    ['Okafor A.', 'ADAEZE OKAFOR', ['order', 'initials']],
    ['Adaeze Okafor', 'ADAZE OKAFOR', ['spelling']],
    ['Chinedu Nwosu', 'CHINEDU NWOSSU', ['spelling']],
    ['Tunde Adeyemi', 'TUNDE ADEYEMI BABATUNDE', ['extra_name']],
    ['Tunde Adeyemi', 'ADEYEMI TUNDE B', ['order', 'extra_name']],
    ['Ada Obi', 'ADA GRACE NGOZI OBI', ['extra_name']],
    ['Okafor', 'ADAEZE OKAFOR', ['extra_name']],
    ['Maryjane Obi', 'MARY JANE OBI', ['spelling']],
  ])('%j and %j: %j', (sheet, bank, reasons) =>
    expect(checkName(sheet, bank)).toEqual({ result: 'close_match', reasons }),
  )

  it('is the same whichever side is longer', () => {
    expect(checkName('ADAEZE NGOZI OKAFOR', 'Adaeze Okafor').result).toBe('close_match')
  })
})

describe('no match', () => {
  it.each([
    ['Adaeze Okafor', 'TUNDE ADEYEMI'],
    ['John Smith', 'JOHN BROWN'],
    ['Adaeze Okafor', 'ADAEZE NWOSU EZE OBI'],
    ['A', 'ADAEZE'],
    ['A. O.', 'ADAEZE OKAFOR'],
    ['', 'ADAEZE OKAFOR'],
    ['Adaeze Okafor', ''],
    ['Mr', 'MR'],
    ['Ade Bello', 'KOFI MENSAH'],
  ])('%j and %j', (sheet, bank) => expect(checkName(sheet, bank)).toEqual({ result: 'no_match', reasons: [] }))
})

describe('the words of a name', () => {
  it('drops marks, punctuation, titles and legal forms, and keeps the order', () => {
    expect(nameTokens('Dr. Adéwálé O. Ọ̀ṣun-Bello')).toEqual(['adewale', 'o', 'osun', 'bello'])
  })

  it('leaves namesMatch as its callers know it: equal words in any order', () => {
    expect(namesMatch('Adaeze Okafor', 'OKAFOR ADAEZE')).toBe(true)
    expect(namesMatch('A. Okafor', 'ADAEZE OKAFOR')).toBe(false)
  })
})
