package com.example.library;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Library {
    private static final String[] GENRES = {"fiction", "history", "science"};
    private final Map<String, Book> books = new HashMap<>();
    private final List<String> log = new ArrayList<>();

    public Library() {
        log.add("created");
    }

    public void addBook(Book book) {
        if (book == null) {
            throw new IllegalArgumentException("book is null");
        }
        books.put(book.getIsbn(), book);
        log.add("added " + book.getIsbn());
    }

    public Book findBook(String isbn) {
        Book book = books.get(isbn);
        if (book == null) {
            return null;
        }
        return book;
    }

    public boolean removeBook(String isbn) {
        Book removed = books.remove(isbn);
        if (removed == null) {
            return false;
        }
        log.add("removed " + isbn);
        return true;
    }

    public int count() {
        return books.size();
    }

    public static class Builder {
        private String name;
        private int capacity;

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder capacity(int capacity) {
            this.capacity = capacity;
            return this;
        }

        public Library build() {
            return new Library();
        }
    }
}
