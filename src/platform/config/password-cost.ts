/**
 * OWASP's scrypt setting for new hashes (Password Storage Cheat Sheet): N=2^14, r=8, p=5, listed
 * there as equal in strength to N=2^17, r=8, p=1 but holding 16 MiB while it runs instead of
 * 128 MiB (p runs one after another). PASSWORD_HASH_COST (log2 N) may lower it outside
 * production only: the test suite hashes hundreds of throwaway passwords.
 */
export const DEFAULT_PASSWORD_HASH_COST = 14;
/**
 * The highest cost a new hash may take: 128 * 2^17 * 8 bytes is the whole per-process hashing
 * budget (deploy/README.md, "Memory"); a costlier hash could never be made within it.
 */
export const MAX_PASSWORD_HASH_COST = 17;
