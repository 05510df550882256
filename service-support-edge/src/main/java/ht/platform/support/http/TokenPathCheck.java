package ht.platform.support.http;

import ht.platform.support.errors.ApiException;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The check of {@link TokenPath} resources. */
public class TokenPathCheck {

    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{1,200}");

    @TokenPath
    @ServerRequestFilter(priority = 800, nonBlocking = true)
    public void check(UriInfo uri) {
        for (Map.Entry<String, List<String>> param : uri.getPathParameters().entrySet()) {
            for (String value : param.getValue()) {
                if (!TOKEN.matcher(value).matches()) {
                    throw new ApiException(404, "NOT_FOUND", "No such page: the link is not valid");
                }
            }
        }
    }
}
