/**
 * Which IAM roles the replacer may pass to EC2. CreateFleet launches from each group's own launch
 * template, and EC2 checks iam:PassRole for the template's instance profile role against the caller: an
 * unscoped PassRole would let anyone who can opt a group in (and edit its template) get an instance with
 * any role of the account. By default only roles the operator marked passable may be passed.
 */
import { Aws } from 'aws-cdk-lib'

export type PassableRoles =
  /** Roles carrying this tag (`aws iam tag-role --tags Key=<key>,Value=<value>`). */
  | { readonly kind: 'tagged'; readonly tagKey: string; readonly tagValue: string }
  /** Roles under this IAM path (`/app/` admits `role/app/*`; a role's path is fixed when it is created). */
  | { readonly kind: 'path'; readonly path: string }
  /** Every role of the account: what spotswap did before roles could be marked. */
  | { readonly kind: 'any' }

export const DEFAULT_PASSABLE_ROLE_TAG = 'spotswap:passable'

/** @default roles tagged `spotswap:passable=true` */
export const DEFAULT_PASSABLE_ROLES: PassableRoles = {
  kind: 'tagged',
  tagKey: DEFAULT_PASSABLE_ROLE_TAG,
  tagValue: 'true',
}

export class InvalidPassableRolesError extends Error {
  override readonly name = 'InvalidPassableRolesError'
}

const IAM_TAG_KEY = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$/u
const IAM_PATH = /^\/([\x21-\x7e]*\/)?$/

/** The context spelling: `tag:<key>=<value>`, `path:/<path>/` or `any`. */
export const parsePassableRoles = (text: string): PassableRoles => {
  if (text === 'any') return { kind: 'any' }
  if (text.startsWith('path:')) {
    const path = text.slice('path:'.length)
    if (!IAM_PATH.test(path) || path.length > 512)
      throw new InvalidPassableRolesError(`passable roles: ${path} is not an IAM path such as /spotswap/`)
    return { kind: 'path', path }
  }
  if (text.startsWith('tag:')) {
    const [tagKey = '', ...rest] = text.slice('tag:'.length).split('=')
    const tagValue = rest.join('=')
    if (!IAM_TAG_KEY.test(tagKey) || tagValue === '' || tagValue.includes('*'))
      throw new InvalidPassableRolesError(
        `passable roles: expected tag:<key>=<value> with a literal value, got ${text}`,
      )
    return { kind: 'tagged', tagKey, tagValue }
  }
  throw new InvalidPassableRolesError(
    `passable roles must be tag:<key>=<value>, path:/<path>/ or any (got ${text}); nothing was deployed`,
  )
}

/** A synth warning for a choice wider than marking roles one by one; undefined for the narrow ones. */
export const widerPassableRolesWarning = (roles: PassableRoles): string | undefined => {
  if (roles.kind === 'any' || (roles.kind === 'path' && roles.path === '/'))
    return 'spotswap may pass ANY IAM role of this account to the EC2 instances it launches: whoever can opt a group in and edit its launch template can then get an instance with any role. Mark the instance roles instead (the default, roles tagged spotswap:passable=true) or use a dedicated path.'
  return undefined
}

interface PassRoleGrant {
  readonly resources: readonly string[]
  readonly conditions: Readonly<Record<string, Readonly<Record<string, string>>>>
}

const ROLE_ARN_PREFIX = `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role`
/** EC2 is the only service a passed role may go to: it is the launch template's instance profile role. */
const TO_EC2 = { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } } as const

export const passRoleScope = (roles: PassableRoles): PassRoleGrant => {
  switch (roles.kind) {
    case 'tagged':
      return {
        resources: [`${ROLE_ARN_PREFIX}/*`],
        conditions: {
          StringEquals: {
            ...TO_EC2.StringEquals,
            [`iam:ResourceTag/${roles.tagKey}`]: roles.tagValue,
          },
        },
      }
    case 'path':
      return { resources: [`${ROLE_ARN_PREFIX}${roles.path}*`], conditions: TO_EC2 }
    case 'any':
      return { resources: [`${ROLE_ARN_PREFIX}/*`], conditions: TO_EC2 }
  }
}
