/**
 * A SCRAM-SHA-256 password verifier as PostgreSQL stores it (RFC 5802, 7677): made on the desk
 * that adds a member, so the plain password never travels to the server, its logs or
 * pg_stat_activity. PostgreSQL accepts it in CREATE/ALTER ROLE ... PASSWORD and checks logins
 * against it exactly as against one it made itself.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'

const ITERATIONS = 4096

export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): string {
  // SASLprep is close to NFKC for the characters people type; ASCII passwords are unchanged.
  const salted = pbkdf2Sync(Buffer.from(password.normalize('NFKC'), 'utf8'), salt, iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}
