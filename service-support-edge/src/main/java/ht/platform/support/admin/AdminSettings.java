package ht.platform.support.admin;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;

import java.util.Optional;

@ConfigMapping(prefix = "admin")
public interface AdminSettings {

    /** ADMIN_TOKEN; when unset the operator API answers 404. */
    @WithName("token")
    Optional<String> token();
}
