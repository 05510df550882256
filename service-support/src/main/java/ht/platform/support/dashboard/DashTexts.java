package ht.platform.support.dashboard;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The dashboard's words, {@code {dash:key}} in its templates: French by default, English and Haitian Creole in
 * {@code messages/dash_*.properties} (the same keys in the three files).
 */
@MessageBundle(value = "dash", locale = "fr")
public interface DashTexts {

    @Message
    String lang_name();

    @Message
    String brand();

    @Message
    String mode_test();

    @Message
    String mode_live();

    @Message
    String switch_to_live();

    @Message
    String switch_to_test();

    @Message
    String test_banner();

    @Message
    String sign_out();

    @Message
    String signed_in_as();

    @Message
    String sign_in_title();

    @Message
    String sign_in_intro();

    @Message
    String sign_in_button();

    @Message
    String sign_in_needed();

    @Message
    String sign_in_refused();

    @Message
    String signed_out();

    @Message
    String error_title();

    @Message
    String not_found();

    @Message
    String back();


    @Message
    String nav_deliveries();











    @Message
    String col_id();

    @Message
    String col_url();

    @Message
    String col_events();

    @Message
    String col_status();


    @Message
    String col_created();

    @Message
    String col_event();

    @Message
    String col_event_type();

    @Message
    String col_attempts();

    @Message
    String col_next_attempt();

    @Message
    String col_time();

    @Message
    String col_status_code();

    @Message
    String col_latency();

    @Message
    String col_error();

    @Message
    String col_excerpt();

    @Message
    String col_amount();



    @Message
    String col_reference();








    @Message
    String col_updated();

    @Message
    String col_currency();


    @Message
    String col_delivered_at();

    @Message
    String col_mode();

    @Message
    String status_active();

    @Message
    String status_paused();

    @Message
    String status_pending();

    @Message
    String status_delivered();

    @Message
    String status_abandoned();

    @Message
    String status_failed();

    @Message
    String status_succeeded();

    @Message
    String status_dead();

    @Message
    String status_enabled();

    @Message
    String status_disabled();


    @Message
    String webhooks_none();

    @Message
    String register_title();

    @Message
    String register_url();

    @Message
    String register_events();

    @Message
    String register_delivery();

    @Message
    String delivery_push();

    @Message
    String delivery_pull();

    @Message
    String feed_behind();

    @Message
    String feed_read_at();

    @Message
    String feed_never_read();

    @Message
    String register_button();

    @Message
    String secret_once_title();

    @Message
    String secret_once();



    @Message
    String rotate();

    @Message
    String rotated_overlap();






    @Message
    String recover_title();

    @Message
    String recover_help();

    @Message
    String recover_since();

    @Message
    String recover_until();

    @Message
    String recover_button();

    @Message
    String recovered();

    @Message
    String recover_repeat();

    @Message
    String deliveries_title();

    @Message
    String deliveries_none();

    @Message
    String filter_address();

    @Message
    String filter_status();

    @Message
    String filter_event_type();

    @Message
    String filter_all();

    @Message
    String filter_button();

    @Message
    String older();

    @Message
    String delivery_title();

    @Message
    String resend();

    @Message
    String resent();

    @Message
    String no_attempts();






    @Message
    String none();





















}
