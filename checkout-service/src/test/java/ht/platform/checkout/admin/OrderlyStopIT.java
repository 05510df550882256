package ht.platform.checkout.admin;

import ht.platform.support.testing.OrderlyStopContract;

class OrderlyStopIT extends OrderlyStopContract {
}
