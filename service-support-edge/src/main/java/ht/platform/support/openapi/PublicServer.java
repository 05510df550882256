package ht.platform.support.openapi;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

import java.util.ArrayList;
import java.util.List;

/**
 * The document's {@code servers} and {@code info.contact} from the service's public origin ({@code public-base-url},
 * env {@code PUBLIC_BASE_URL}): at build time for the stored document the clients are generated from, and again when
 * the service starts, so the served document names the address it is really reached at. The contact's e-mail is
 * {@code platform.openapi.contact-email} when set.
 */
@OpenApiFilter(stages = {OpenApiFilter.RunStage.BUILD, OpenApiFilter.RunStage.RUNTIME_STARTUP})
public class PublicServer implements OASFilter {

    static final String CONTACT = "API support";

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Config config = ConfigProvider.getConfig();
        String base = config.getOptionalValue("public-base-url", String.class).orElse("http://localhost:8080").replaceAll("/+$", "");
        List<org.eclipse.microprofile.openapi.models.servers.Server> servers = new ArrayList<>();
        servers.add(OASFactory.createServer().url(base).description("This service's public address"));
        api.setServers(servers);
        if (api.getInfo() == null) {
            api.setInfo(OASFactory.createInfo());
        }
        api.getInfo().setContact(OASFactory.createContact().name(CONTACT).url(base)
                .email(config.getOptionalValue("platform.openapi.contact-email", String.class).orElse(null)));
    }
}
