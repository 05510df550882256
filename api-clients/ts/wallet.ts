// The README's wallet tour through the TypeScript client: openapi-typescript's types of the served document and
// openapi-fetch. Register a webhook address, create a payment, drive it to succeeded, read it and the balance.
import createClient from "openapi-fetch";
import type { operations, paths } from "../target/ts/wallet.js";
import { baseUrl, done, handOverSecret, headers, ok } from "./tour.js";

type CreatePayment = operations["createPayment"]["requestBody"]["content"]["application/json"];

const wallet = createClient<paths>({ baseUrl, headers });

const webhook = ok("createWebhook", await wallet.POST("/api/v1/webhooks", {
  body: { url: process.env.WEBHOOK_URL!, events: ["payment.created", "payment.pending", "payment.succeeded"] },
}), 201);
handOverSecret(webhook.secret!);

const order: CreatePayment = { amount: 1000, currency: "HTG", reference: `order-ts-${Date.now()}` };
const payment = ok("createPayment", await wallet.POST("/api/v1/payments", {
  body: order, params: { header: { "Idempotency-Key": order.reference } },
}), 201);
if (payment.status !== "created" || payment.fee !== 25 || payment.total !== 1025) throw new Error(`createPayment: ${JSON.stringify(payment)}`);

ok("driveTestPayment", await wallet.POST("/api/v1/test_helpers/payments/{id}/{action}", {
  params: { path: { id: payment.id!, action: "succeed" } },
}), 200);
const read = ok("retrievePayment", await wallet.GET("/api/v1/payments/{id}", { params: { path: { id: payment.id! } } }), 200);
if (read.status !== "succeeded") throw new Error(`retrievePayment: ${read.status}`);
const balance = ok("retrieveBalance", await wallet.GET("/api/v1/balance"), 200);

done({ payment: payment.id, status: read.status, available: balance.available });
