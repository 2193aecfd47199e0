export {
  startTestPushService,
  type PushRequestRecord,
  type ReceivedPush,
  type RejectedPush,
  type TestPushOptions,
  type TestPushService,
  type TestPushSubscription,
} from './test-push-service.js';
