package ht.platform.checkout.web;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The hosted payment page's texts.
 * Texts in src/main/resources/messages/msg_fr.properties (French, the default), msg_en and msg_ht; templates say
 * {msg:title}, and a key no method declares fails the build (see service-support's MessageBundleConvention).
 */
@MessageBundle(value = "msg", locale = "fr")
public interface Messages {

    @Message
    String title();

    @Message
    String amount();

    @Message
    String description();

    @Message
    String choose_method();

    @Message
    String unavailable();

    @Message
    String no_method();

    @Message
    String test_mode();

    @Message
    String outcome();

    @Message
    String outcome_succeeded();

    @Message
    String outcome_failed();

    @Message
    String outcome_requires_action();

    @Message
    String outcome_provider_pending();

    @Message
    String outcome_provider_unknown_then_succeeded();

    @Message
    String outcome_provider_unknown_then_failed();

    @Message
    String method_test_card();

    @Message
    String method_test_wallet();

    @Message
    String rail_continue();

    @Message
    String pay();

    @Message
    String action_title();

    @Message
    String action_text();

    @Message
    String approve();

    @Message
    String decline();

    @Message
    String status_processing();

    @Message
    String status_provider_pending();

    @Message
    String status_provider_unknown();

    @Message
    String status_requires_capture();

    @Message
    String status_succeeded();

    @Message
    String status_partially_refunded();

    @Message
    String status_refunded();

    @Message
    String status_failed();

    @Message
    String status_cancelled();

    @Message
    String status_expired();

    @Message
    String refresh();

    @Message
    String back_to_merchant();

    @Message
    String error();

    @Message
    String language();
    @Message
    String link_continue();

    @Message
    String link_test_mode();

    @Message
    String checking_title();

    @Message
    String checking_message();
}
