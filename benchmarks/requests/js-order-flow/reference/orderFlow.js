// Reference solution of js-order-flow.
const TRANSITIONS = {
  pending: { pay: 'paid', cancel: 'cancelled' },
  paid: { ship: 'shipped', refund: 'refunded' },
  shipped: { deliver: 'delivered' },
};

class Order {
  #history = ['pending'];

  get state() {
    return this.#history[this.#history.length - 1];
  }

  get history() {
    return [...this.#history];
  }

  can(action) {
    return Object.hasOwn(TRANSITIONS[this.state] || {}, action);
  }

  #go(action) {
    if (!this.can(action)) throw new Error(`cannot ${action} an order that is ${this.state}`);
    this.#history.push(TRANSITIONS[this.state][action]);
  }

  pay() { this.#go('pay'); }

  cancel() { this.#go('cancel'); }

  ship() { this.#go('ship'); }

  refund() { this.#go('refund'); }

  deliver() { this.#go('deliver'); }
}

module.exports = { Order };
