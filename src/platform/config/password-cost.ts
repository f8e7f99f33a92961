/**
 * OWASP's recommended scrypt cost (Password Storage Cheat Sheet): N=2^17, r=8, p=1, 128 MiB.
 * PASSWORD_HASH_COST (log2 N) may lower it outside production only: the test suite hashes
 * hundreds of throwaway passwords, and at 0.5 s each it would spend minutes on nothing else.
 */
export const DEFAULT_PASSWORD_HASH_COST = 17;
