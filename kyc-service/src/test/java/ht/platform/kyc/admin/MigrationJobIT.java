package ht.platform.kyc.admin;

import ht.platform.support.testing.MigrationJobContract;

class MigrationJobIT extends MigrationJobContract {
}
