package ht.platform.kyc.web.dashboard;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * This service's own dashboard words, {@code {board:key}} in its templates (the words every dashboard shares are
 * service-support's {@code dash} bundle): French by default, English and Haitian Creole in
 * {@code messages/board_*.properties}.
 */
@MessageBundle(value = "board", locale = "fr")
public interface DashboardTexts {

    @Message
    String nav_verifications();

    @Message
    String nav_settings();

    @Message
    String col_reason_codes();

    @Message
    String col_external_user_id();

    @Message
    String verifications_title();

    @Message
    String settings_title();

    @Message
    String settings_return_url();

    @Message
    String settings_webhook_url();

    @Message
    String settings_save();

    @Message
    String settings_saved();

    @Message
    String col_completed();

    @Message
    String col_expires();

    @Message
    String settings_mode_address();
}
