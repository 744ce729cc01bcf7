/**
 * naive-ui's English without its stand-in placeholders ("Please Input", "Please Select"): every
 * field of the desk says in its own words what goes in it, and a field that has no placeholder
 * of its own shows none rather than an instruction in the library's words.
 */
import { createLocale, enUS } from 'naive-ui'

export const plainLocale = createLocale(
  {
    Input: { placeholder: '' },
    InputNumber: { placeholder: '' },
    Select: { placeholder: '' },
    Cascader: { placeholder: '' },
  },
  enUS,
)
