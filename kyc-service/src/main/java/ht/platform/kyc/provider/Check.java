package ht.platform.kyc.provider;

/** One independent check of the decision pipeline. */
public interface Check {

    String name();

    CheckResult run(Evidence evidence);
}
