package ht.platform.support.testing;

import io.restassured.specification.RequestSpecification;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

/**
 * Customers' browsers between a service's hosted pages and MonCash: one leaves a page through its MonCash form and
 * keeps the cookie the page sets, and comes back from MonCash to the service's return address with that cookie.
 */
public final class MonCashBrowser {

    private final String cookieName;
    private final String returnPath;
    private final Map<String, String> cookies = new ConcurrentHashMap<>();

    /** @param cookieName the page's rail cookie ({@code co_rail_session}); @param returnPath where MonCash sends customers back */
    public MonCashBrowser(String cookieName, String returnPath) {
        this.cookieName = cookieName;
        this.returnPath = returnPath;
    }

    /**
     * Posts the MonCash form of {@code page} (at {@code path}, with {@code fields}); answers where the browser is sent
     * and keeps the page's cookie (none when the page sends the customer back instead).
     */
    public String leave(String page, String path, Map<String, String> fields) {
        RequestSpecification form = given().redirects().follow(false).contentType("application/x-www-form-urlencoded");
        fields.forEach(form::formParam);
        var sent = form.post(path).then().statusCode(303).extract();
        String cookie = sent.cookie(cookieName);
        if (cookie != null) {
            cookies.put(page, cookie);
        }
        return sent.header("Location");
    }

    /** The cookie the browser of {@code page} got on its way to MonCash. */
    public String cookie(String page) {
        return cookies.get(page);
    }

    /** MonCash sends the customer back (with the transaction id, unless null): the browser is sent on to {@code pagePath}. */
    public void comeBack(String page, String pagePath, String transactionId) {
        RequestSpecification back = given().redirects().follow(false).cookie(cookieName, cookies.get(page));
        if (transactionId != null) {
            back = back.queryParam("transactionId", transactionId);
        }
        back.get(returnPath).then().statusCode(303).header("Location", containsString(pagePath));
    }

    /** The MonCash payment token of the MonCash page a browser is sent to. */
    public static String moncashToken(String redirect) {
        return URLDecoder.decode(redirect.substring(redirect.indexOf("token=") + 6), StandardCharsets.UTF_8);
    }
}
