/**
 * The rule of resources that take exactly one of several query parameters (specification, "Limits": GET
 * /users "one at a time"; the basic login resource's `<prefix>ApplicationUrl`, one of the accepted names).
 */
import { RestError } from './rest-error.js'

/** The one parameter of `names` the query gives; 400 BAD_PARAMETER when it gives none or several. */
export function theOneParameter<Name extends string>(
  query: Partial<Record<Name, string | undefined>>,
  names: readonly Name[],
): Name {
  const given = names.filter((name) => query[name] !== undefined)
  const [name] = given
  if (name === undefined || given.length > 1)
    throw new RestError(
      'BAD_PARAMETER',
      given.length === 0
        ? `One query parameter is required among ${names.join(', ')}`
        : `Only one query parameter at a time: got ${given.join(', ')}`,
    )
  return name
}
