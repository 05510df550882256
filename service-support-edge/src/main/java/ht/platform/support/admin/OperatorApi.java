package ht.platform.support.admin;

import jakarta.ws.rs.NameBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource of the operator API: every request the router sends to it, however its path was spelled, passes
 * {@link AdminAuthentication} first (Bearer ADMIN_TOKEN; 404 when no token is configured).
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface OperatorApi {
}
