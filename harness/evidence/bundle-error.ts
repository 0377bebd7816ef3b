/**
 * A bundle that cannot be read, or a file of it that is not what its schema says: worded as what follows
 * "<bundle> cannot be replayed: " or "cannot be verified: ", in one line.
 */
export class BundleError extends Error {}
