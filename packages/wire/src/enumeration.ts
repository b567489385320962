/** Helper that turns a list of wire spellings into a TypeBox `enum` schema. */
import { type TEnum, Type } from 'typebox'

/** A schema accepting exactly the given strings (one `enum` keyword, which reads well in OpenAPI). */
export function enumeration<const Values extends readonly string[]>(
  values: Values,
  options: { title?: string; description?: string } = {},
): TEnum<[...Values]> {
  return Type.Enum([...values], options) as TEnum<[...Values]>
}
