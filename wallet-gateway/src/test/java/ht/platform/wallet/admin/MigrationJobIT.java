package ht.platform.wallet.admin;

import ht.platform.support.testing.MigrationJobContract;

class MigrationJobIT extends MigrationJobContract {
}
