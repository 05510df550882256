package ht.platform.checkout.admin;

import ht.platform.support.testing.MigrationJobContract;

class MigrationJobIT extends MigrationJobContract {
}
