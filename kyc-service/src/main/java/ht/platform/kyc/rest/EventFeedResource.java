package ht.platform.kyc.rest;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.Caller;
import ht.platform.support.feed.FeedApi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;

/**
 * The event feed of an application's mode: the events its webhook address of that mode receives (or, with no URL
 * set, keeps on the feed), signed with that mode's webhook secret.
 */
@ApiKeyRequired
@Path("/api/v1/events")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Events")
public class EventFeedResource {

    @Inject
    Caller caller;

    @Inject
    FeedApi feed;

    @GET
    @Operation(operationId = "listEvents", summary = FeedApi.SUMMARY, description = "Scope: verifications:read. The address is the application's"
            + " webhook address of the key's mode. " + FeedApi.DESCRIPTION)
    public Uni<Map<String, Object>> events(@QueryParam("after") String after, @QueryParam("limit") String limit,
                                           @QueryParam("wait") String wait, @QueryParam("types") String types,
                                           @QueryParam("address") String address) {
        return feed.read(caller, after, limit, wait, types, address);
    }
}
