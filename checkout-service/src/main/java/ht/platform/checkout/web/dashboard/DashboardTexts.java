package ht.platform.checkout.web.dashboard;

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
    String nav_api_logs();

    @Message
    String nav_events();

    @Message
    String nav_endpoints();

    @Message
    String nav_payment_intents();

    @Message
    String nav_refunds();

    @Message
    String col_method();

    @Message
    String col_path();

    @Message
    String col_request_id();

    @Message
    String col_key();

    @Message
    String api_logs_title();

    @Message
    String search_request_id();

    @Message
    String request_title();

    @Message
    String request_body();

    @Message
    String response_body();

    @Message
    String events_title();

    @Message
    String event_title();

    @Message
    String endpoints_title();

    @Message
    String disable();

    @Message
    String disabled();

    @Message
    String payment_intents_title();

    @Message
    String refunds_title();
}
