package ht.platform.support.auth;

import jakarta.ws.rs.NameBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource of the public API that needs an API key: every request the router sends to it passes
 * {@link ApiKeyAuthentication} first. Public operations (capabilities, JWKS) are the resources without it; their
 * {@link Caller} stays empty, so a resource that reads the caller without this binding answers 401, never serves.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ApiKeyRequired {
}
