package ht.platform.kyc.admin;

import ht.platform.support.testing.OrderlyStopContract;

class OrderlyStopIT extends OrderlyStopContract {
}
