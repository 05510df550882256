package ht.platform.kyc.web;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The hosted verification page's texts.
 * Texts in src/main/resources/messages/msg_fr.properties (French, the default), msg_en and msg_ht; templates say
 * {msg:title}, and a key no method declares fails the build (see service-support's MessageBundleConvention).
 */
@MessageBundle(value = "msg", locale = "fr")
public interface Messages {

    @Message
    String title();

    @Message
    String language();

    @Message
    String consent_title();

    @Message
    String consent_text();

    @Message
    String consent_accept();

    @Message
    String consent_decline();

    @Message
    String doc_title();

    @Message
    String doc_national_id();

    @Message
    String doc_driver_license();

    @Message
    String doc_passport();

    @Message
    String continue_button();

    @Message
    String upload_title();

    @Message
    String upload_front();

    @Message
    String upload_back();

    @Message
    String upload_submit();

    @Message
    String selfie_title();

    @Message
    String selfie_text();

    @Message
    String selfie_submit();

    @Message
    String processing_text();

    @Message
    String test_title();

    @Message
    String test_text();

    @Message
    String test_reason();

    @Message
    String test_submit();

    @Message
    String outcome_verified();

    @Message
    String outcome_rejected();

    @Message
    String outcome_retry_required();

    @Message
    String outcome_unable_to_verify();

    @Message
    String outcome_technical_error();

    @Message
    String result_title();

    @Message
    String status_verified();

    @Message
    String status_rejected();

    @Message
    String status_retry_required();

    @Message
    String status_unable_to_verify();

    @Message
    String status_expired();

    @Message
    String status_cancelled();

    @Message
    String status_technical_error();

    @Message
    String return_link();

    @Message
    String close_window();

    @Message
    String invalid_link();

    @Message
    String error_generic();
}
