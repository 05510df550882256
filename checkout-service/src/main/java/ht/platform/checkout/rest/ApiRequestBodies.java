package ht.platform.checkout.rest;

import ht.platform.support.auth.ApiKeyRequired;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Keeps the body of each keyed API request for the API logs ({@link ApiLogRecorder} masks and stores it): the body
 * is read once (the edge has already bounded it to 1 MiB) and handed on unchanged.
 */
@Provider
@ApiKeyRequired
public class ApiRequestBodies implements ReaderInterceptor {

    static final String BODY = "checkout.api-log.request-body";

    @Inject
    CurrentVertxRequest request;

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        byte[] body = context.getInputStream().readAllBytes();
        request.getCurrent().put(BODY, body);
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
