/** What a call expected to fail threw; fails the test when the call succeeds. */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}
