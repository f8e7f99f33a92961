/** The insurers the service knows: pure data in src/lib, which config and common read too. */
export * from '@/lib/insurer-codes';
