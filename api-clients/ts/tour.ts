// What every tour shares: the settings the test hands over, and a check that stops the tour with the answer.
import { writeFileSync } from "node:fs";

export const baseUrl = need("BASE_URL");
export const apiKey = need("API_KEY");
export const headers = { Authorization: `Bearer ${apiKey}` };

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The answer's data, or the tour stops with the error body and the status. */
export function ok<T>(step: string, answer: { data?: T; error?: unknown; response: Response }, status: number): T {
  if (answer.response.status !== status || answer.data === undefined) {
    throw new Error(`${step}: ${answer.response.status} ${JSON.stringify(answer.error)} (expected ${status})`);
  }
  return answer.data;
}

/** A webhook secret for the test's receiver, the moment it is shown (it is shown once). */
export function handOverSecret(secret: string): void {
  writeFileSync(need("SECRET_FILE"), secret);
}

/** The tour's result, the last line of its output, for the test to check against what its receiver verified. */
export function done(result: Record<string, unknown>): void {
  console.log(JSON.stringify(result));
}
