package ht.platform.support.http;

import jakarta.ws.rs.NameBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource addressed by opaque tokens in its path (the hosted pages: {@code /v/{token}}, {@code /pay/{session}},
 * {@code /wallet/{token}}): a path parameter that is not a token ({@code [A-Za-z0-9_-]}, at most 200) names no page,
 * so {@link TokenPathCheck} answers 404 before the resource builds a redirect or a query from it.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface TokenPath {
}
