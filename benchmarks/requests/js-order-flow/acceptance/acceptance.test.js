// Acceptance tests of js-order-flow, written from request.md alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const loaded = require('./orderFlow');
// "exporting a class Order": a bare class export or a named one
const Order = loaded.Order || loaded;

const ALLOWED = {
  pending: { pay: 'paid', cancel: 'cancelled' },
  paid: { ship: 'shipped', refund: 'refunded' },
  shipped: { deliver: 'delivered' },
  cancelled: {},
  refunded: {},
  delivered: {},
};
const ACTIONS = ['pay', 'cancel', 'ship', 'refund', 'deliver'];
const PATHS = {
  pending: [],
  paid: ['pay'],
  cancelled: ['cancel'],
  shipped: ['pay', 'ship'],
  refunded: ['pay', 'refund'],
  delivered: ['pay', 'ship', 'deliver'],
};

function orderIn(state) {
  const order = new Order();
  for (const action of PATHS[state]) order[action]();
  return order;
}

test('a new order is pending', () => {
  const order = new Order();
  assert.equal(order.state, 'pending');
  assert.deepEqual([...order.history], ['pending']);
});

test('pay, ship, deliver', () => {
  const order = new Order();
  order.pay();
  order.ship();
  order.deliver();
  assert.equal(order.state, 'delivered');
  assert.deepEqual([...order.history], ['pending', 'paid', 'shipped', 'delivered']);
});

test('cancel a pending order', () => {
  const order = new Order();
  order.cancel();
  assert.equal(order.state, 'cancelled');
  assert.deepEqual([...order.history], ['pending', 'cancelled']);
});

test('refund a paid order', () => {
  const order = new Order();
  order.pay();
  order.refund();
  assert.equal(order.state, 'refunded');
  assert.deepEqual([...order.history], ['pending', 'paid', 'refunded']);
});

test('shipping a pending order throws the stated message', () => {
  const order = new Order();
  assert.throws(() => order.ship(), { message: 'cannot ship an order that is pending' });
  assert.equal(order.state, 'pending');
  assert.deepEqual([...order.history], ['pending']);
});

test('paying twice throws', () => {
  const order = new Order();
  order.pay();
  assert.throws(() => order.pay(), { message: 'cannot pay an order that is paid' });
  assert.equal(order.state, 'paid');
});

test('a delivered order cannot be cancelled', () => {
  const order = orderIn('delivered');
  assert.throws(() => order.cancel(), { message: 'cannot cancel an order that is delivered' });
  assert.equal(order.state, 'delivered');
});

test('changing the returned history does not change the order', () => {
  const order = new Order();
  order.pay();
  const seen = order.history;
  try {
    seen.push('hacked');
  } catch {
    // a frozen copy is fine too
  }
  assert.deepEqual([...order.history], ['pending', 'paid']);
});

test('can on a new order', () => {
  const order = new Order();
  assert.equal(order.can('pay'), true);
  assert.equal(order.can('ship'), false);
  assert.equal(order.state, 'pending');
});

test('can changes nothing', () => {
  const order = new Order();
  order.pay();
  for (const action of ACTIONS) order.can(action);
  assert.equal(order.state, 'paid');
  assert.deepEqual([...order.history], ['pending', 'paid']);
});

test('every action in every state', () => {
  for (const [state, allowed] of Object.entries(ALLOWED)) {
    for (const action of ACTIONS) {
      const order = orderIn(state);
      assert.equal(order.can(action), action in allowed, `${state}.can(${action})`);
      if (action in allowed) {
        order[action]();
        assert.equal(order.state, allowed[action], `${state}.${action}()`);
      } else {
        assert.throws(() => order[action](), {
          message: `cannot ${action} an order that is ${state}`,
        });
        assert.equal(order.state, state);
      }
    }
  }
});
