package ht.platform.kyc;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Before any kyc-service test instance starts: Tesseract found on the machine, or installed from Debian (MachineTools). */
public class TesseractResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        MachineTools.find("tesseract");
        return Map.of();
    }

    @Override
    public void stop() {
        // nothing runs
    }
}
