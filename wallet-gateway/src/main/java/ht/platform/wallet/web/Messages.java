package ht.platform.wallet.web;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The hosted wallet page's texts.
 * Texts in src/main/resources/messages/msg_fr.properties (French, the default), msg_en and msg_ht; templates say
 * {msg:title}, and a key no method declares fails the build (see service-support's MessageBundleConvention).
 */
@MessageBundle(value = "msg", locale = "fr")
public interface Messages {

    @Message
    String title();

    @Message
    String merchant();

    @Message
    String amount();

    @Message
    String fee();

    @Message
    String total();

    @Message
    String reference();

    @Message
    String description();

    @Message
    String status();

    @Message
    String status_created();

    @Message
    String status_pending();

    @Message
    String status_succeeded();

    @Message
    String status_failed();

    @Message
    String status_expired();

    @Message
    String expires();

    @Message
    String test_banner();

    @Message
    String test_hint();

    @Message
    String succeed();

    @Message
    String fail();

    @Message
    String live_confirm();

    @Message
    String moncash_pay();

    @Message
    String moncash_waiting();

    @Message
    String moncash_error();

    @Message
    String succeeded_message();

    @Message
    String failed_message();

    @Message
    String expired_message();

    @Message
    String back_to_merchant();

    @Message
    String paid_at();

    @Message
    String checking_title();

    @Message
    String checking_message();

    @Message
    String not_found_title();

    @Message
    String not_found_message();

    @Message
    String forbidden_message();

    @Message
    String language();
}
