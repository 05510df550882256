package ht.platform.wallet.web.dashboard;

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
    String nav_webhooks();

    @Message
    String nav_payments();

    @Message
    String nav_withdrawals();

    @Message
    String nav_balance();

    @Message
    String col_failures();

    @Message
    String col_fee();

    @Message
    String col_total();

    @Message
    String col_destination();

    @Message
    String col_paused_at();

    @Message
    String webhooks_title();

    @Message
    String webhook_title();

    @Message
    String reactivate();

    @Message
    String send_test();

    @Message
    String test_sent();

    @Message
    String delete();

    @Message
    String deleted();

    @Message
    String reactivated();

    @Message
    String payments_title();

    @Message
    String withdrawals_title();

    @Message
    String balance_title();

    @Message
    String balance_available();

    @Message
    String balance_reserved();
}
