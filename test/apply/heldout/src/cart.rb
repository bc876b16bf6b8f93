require 'json'
require 'bigdecimal'

module Shop
  TAX_RATES = [0.05, 0.1, 0.2].freeze

  class Cart
    attr_reader :items

    def initialize(owner)
      @owner = owner
      @items = []
    end

    def add(product, quantity = 1)
      raise ArgumentError, 'quantity must be positive' if quantity <= 0
      @items << { product: product, quantity: quantity }
      self
    end

    def remove(product)
      @items.reject! { |line| line[:product] == product }
      self
    end

    def total
      @items.sum do |line|
        line[:product].price * line[:quantity]
      end
    end

    def to_json(*args)
      { owner: @owner, items: @items }.to_json(*args)
    end
  end

  def self.format_price(amount)
    format('%.2f', amount)
  end

  def self.format_tax(amount)
    format('%.2f', amount)
  end
end
