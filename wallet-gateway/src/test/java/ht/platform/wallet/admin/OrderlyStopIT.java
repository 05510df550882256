package ht.platform.wallet.admin;

import ht.platform.support.testing.OrderlyStopContract;

class OrderlyStopIT extends OrderlyStopContract {
}
