class Order {
  constructor() {
    this.state = 'pending';
    this.history = ['pending'];
  }

  pay() {
    if (this.state === 'pending') {
      this.state = 'paid';
      this.history.push('paid');
    } else {
      throw new Error(`cannot pay an order that is ${this.state}`);
    }
  }

  cancel() {
    if (this.state === 'pending') {
      this.state = 'cancelled';
      this.history.push('cancelled');
    } else {
      throw new Error(`cannot cancel an order that is ${this.state}`);
    }
  }

  ship() {
    if (this.state === 'paid') {
      this.state = 'shipped';
      this.history.push('shipped');
    } else {
      throw new Error(`cannot ship an order that is ${this.state}`);
    }
  }

  refund() {
    if (this.state === 'paid') {
      this.state = 'refunded';
      this.history.push('refunded');
    } else {
      throw new Error(`cannot refund an order that is ${this.state}`);
    }
  }

  deliver() {
    if (this.state === 'shipped') {
      this.state = 'delivered';
      this.history.push('delivered');
    } else {
      throw new Error(`cannot deliver an order that is ${this.state}`);
    }
  }

  get state() {
    return this.state;
  }

  get history() {
    return this.history;
  }

  can(action) {
    return ['pay', 'cancel', 'ship', 'refund', 'deliver'].includes(action);
  }
}
