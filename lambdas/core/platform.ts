/**
 * EC2 reports an instance's operating system as PlatformDetails; spot prices are keyed by
 * ProductDescription. The common ones are spelled the same; licensed variants map to their base OS.
 */
export const LINUX = 'Linux/UNIX'

const PRODUCT_DESCRIPTIONS = ['Linux/UNIX', 'Red Hat Enterprise Linux', 'SUSE Linux', 'Windows'] as const

export const productDescriptionOf = (platformDetails: string | undefined): string => {
  if (!platformDetails) return LINUX
  const exact = PRODUCT_DESCRIPTIONS.find((p) => p === platformDetails)
  if (exact) return exact
  if (platformDetails.startsWith('Windows')) return 'Windows'
  if (platformDetails.startsWith('Red Hat')) return 'Red Hat Enterprise Linux'
  if (platformDetails.startsWith('SUSE')) return 'SUSE Linux'
  return LINUX
}
