/**
 * argon2 (a native addon) is loaded on the first hash or check, not at start: the server's start does not
 * need it (docs/performance.md, "B4 as users run it").
 */
let argon2Module: Promise<typeof import('argon2')> | undefined;
const loadArgon2 = () => (argon2Module ??= import('argon2'));

/** argon2id (argon2.argon2id) at OWASP's minimum (m = 19 MiB, t = 2, p = 1). */
export const ARGON2_OPTIONS = { type: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  const argon2 = await loadArgon2();
  return argon2.hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no hash it still spends the same work on a dummy hash so that
 * "unknown e-mail" and "wrong password" take the same time.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  const argon2 = await loadArgon2();
  if (!hash) {
    dummyHash ??= hashPassword('dummy-password-1');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
