package ht.platform.support.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.deser.std.JsonNodeDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON text that Postgres can store: a string, object key or tree value holding NUL ({@code "\u0000"}) is a 400
 * naming its field, instead of reaching an insert that fails with 22021.
 */
final class NulFreeText {

    private NulFreeText() { }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("nul-free-text");
        module.addDeserializer(String.class, new Strings());
        module.addKeyDeserializer(String.class, new Keys());
        module.addDeserializer(JsonNode.class, new Trees());
        return module;
    }

    static InvalidFormatException refused(JsonParser p, String value) {
        return new InvalidFormatException(p, "contains the NUL character", value, String.class);
    }

    private static final class Strings extends StdScalarDeserializer<String> {

        Strings() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String value = StringDeserializer.instance.deserialize(p, ctxt);
            if (value != null && value.indexOf('\0') >= 0) {
                throw refused(p, value);
            }
            return value;
        }
    }

    private static final class Keys extends KeyDeserializer {

        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            if (key.indexOf('\0') >= 0) {
                throw refused(ctxt.getParser(), key);
            }
            return key;
        }
    }

    private static final class Trees extends StdDeserializer<JsonNode> {

        Trees() {
            super(JsonNode.class);
        }

        @Override
        public JsonNode deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode tree = JsonNodeDeserializer.getDeserializer(JsonNode.class).deserialize(p, ctxt);
            check(p, tree);
            return tree;
        }

        @Override
        public JsonNode getNullValue(DeserializationContext ctxt) {
            return com.fasterxml.jackson.databind.node.NullNode.getInstance();
        }

        private static void check(JsonParser p, JsonNode node) throws JsonMappingException {
            if (node.isTextual() && node.textValue().indexOf('\0') >= 0) {
                throw refused(p, node.textValue());
            }
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    try {
                        check(p, node.get(i));
                    } catch (JsonMappingException e) {
                        e.prependPath(new JsonMappingException.Reference(null, i));
                        throw e;
                    }
                }
            }
            if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    if (field.getKey().indexOf('\0') >= 0) {
                        throw refused(p, field.getKey());
                    }
                    try {
                        check(p, field.getValue());
                    } catch (JsonMappingException e) {
                        e.prependPath(new JsonMappingException.Reference(null, field.getKey()));
                        throw e;
                    }
                }
            }
        }
    }
}
