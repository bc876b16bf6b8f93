import React, { useState, useEffect } from 'react';
import { Button } from './Button';

interface PanelProps {
  title: string;
  items: string[];
  onSelect: (item: string) => void;
}

const COLORS = ['red', 'green', 'blue'];

export function Panel({ title, items, onSelect }: PanelProps) {
  const [open, setOpen] = useState(true);
  const [filter, setFilter] = useState('');

  useEffect(() => {
    document.title = title;
  }, [title]);

  const visible = items.filter((item) => item.includes(filter));

  return (
    <div className="panel">
      <h2 onClick={() => setOpen(!open)}>{title}</h2>
      {open && (
        <ul>
          {visible.map((item) => (
            <li key={item} onClick={() => onSelect(item)}>
              {item}
            </li>
          ))}
        </ul>
      )}
      <input value={filter} onChange={(e) => setFilter(e.target.value)} />
    </div>
  );
}

export function EmptyPanel({ title }: { title: string }) {
  return (
    <div className="panel empty">
      <h2>{title}</h2>
    </div>
  );
}
