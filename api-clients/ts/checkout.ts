// The README's checkout tour through the TypeScript client: register a webhook endpoint, create a payment intent,
// pay it with the test helper, refund part of it, and read the intent partially refunded.
import createClient from "openapi-fetch";
import type { operations, paths } from "../target/ts/checkout.js";
import { baseUrl, done, handOverSecret, headers, ok } from "./tour.js";

type CreatePaymentIntent = operations["createPaymentIntent"]["requestBody"]["content"]["application/json"];

const checkout = createClient<paths>({ baseUrl, headers });

const endpoint = ok("createWebhookEndpoint", await checkout.POST("/api/v1/webhook_endpoints", {
  body: { url: process.env.WEBHOOK_URL!, events: ["payment_intent.succeeded", "refund.succeeded"] },
}), 201);
handOverSecret(endpoint.secret!);

const cart: CreatePaymentIntent = { amount: "250.00", currency: "HTG", description: "Cart 42" };
const intent = ok("createPaymentIntent", await checkout.POST("/api/v1/payment_intents", {
  body: cart, params: { header: { "Idempotency-Key": `cart-ts-${Date.now()}` } },
}), 201);
if (intent.status !== "requires_payment_method") throw new Error(`createPaymentIntent: ${JSON.stringify(intent)}`);

ok("simulateTestPaymentIntent", await checkout.POST("/api/v1/test_helpers/payment_intents/{id}/simulate", {
  params: { path: { id: intent.id! } }, body: { payment_method: "test_card", outcome: "succeeded" },
}), 200);
const refund = ok("createRefund", await checkout.POST("/api/v1/refunds", {
  body: { payment_intent: intent.id!, amount: "100.00" }, params: { header: { "Idempotency-Key": `refund-ts-${Date.now()}` } },
}), 201);
const read = ok("retrievePaymentIntent", await checkout.GET("/api/v1/payment_intents/{id}", { params: { path: { id: intent.id! } } }), 200);
if (read.status !== "partially_refunded" || read.amount_refunded !== "100.000000") {
  throw new Error(`retrievePaymentIntent: ${read.status} ${read.amount_refunded}`);
}

done({ intent: intent.id, refund: refund.id, status: read.status, amount_refunded: read.amount_refunded });
