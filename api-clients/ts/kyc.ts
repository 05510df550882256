// The README's kyc tour through the TypeScript client: create a verification, complete it with the test helper,
// issue a proof and check it offline against the test JWKS (node's crypto, EdDSA), read the subject's status.
import { createPublicKey, verify } from "node:crypto";
import createClient from "openapi-fetch";
import type { operations, paths } from "../target/ts/kyc.js";
import { baseUrl, done, headers, ok } from "./tour.js";

type CreateVerification = operations["createVerification"]["requestBody"]["content"]["application/json"];

const kyc = createClient<paths>({ baseUrl, headers });

const person = `user-ts-${Date.now()}`;
const request: CreateVerification = {
  external_user_id: person, document_types: ["passport", "national_id"], return_url: "https://bank.example/kyc/done", locale: "ht",
};
const verification = ok("createVerification", await kyc.POST("/api/v1/verifications", {
  body: request, params: { header: { "Idempotency-Key": `${person}-kyc-1` } },
}), 200);
if (verification.status !== "created") throw new Error(`createVerification: ${JSON.stringify(verification)}`);

ok("completeTestVerification", await kyc.POST("/api/v1/test_helpers/verifications/{id}/complete", {
  params: { path: { id: verification.id! } }, body: { outcome: "verified" },
}), 200);
const proof = ok("createVerificationProof", await kyc.POST("/api/v1/verifications/{id}/proof", {
  params: { path: { id: verification.id! } }, body: {},
}), 200);
const jwks = ok("retrieveTestJwks", await kyc.GET("/.well-known/jwks-test.json"), 200) as { keys: Array<Record<string, string>> };

// the proof's signature, checked with the key of its kid from the JWKS alone
const [head, claims, signature] = proof.proof!.split(".");
const header = JSON.parse(Buffer.from(head!, "base64url").toString()) as { kid: string; alg: string };
const jwk = jwks.keys.find((k) => k.kid === header.kid);
if (!jwk || header.alg !== "EdDSA") throw new Error(`no EdDSA key ${header.kid} in the test JWKS`);
const signed = verify(null, Buffer.from(`${head}.${claims}`), createPublicKey({ key: jwk, format: "jwk" }), Buffer.from(signature!, "base64url"));
if (!signed) throw new Error("the proof does not verify against the test JWKS");
const status = ok("retrieveSubjectStatus", await kyc.GET("/api/v1/subjects/{external_user_id}/status", {
  params: { path: { external_user_id: person } },
}), 200);
if (status.status !== "verified") throw new Error(`retrieveSubjectStatus: ${JSON.stringify(status)}`);

done({ verification: verification.id, proof: proof.proof, proofVerified: signed, subject: status.status });
