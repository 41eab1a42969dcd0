import './faq-list.css';

/** One question of a `FaqList`: its key, and its already translated question and answer. */
export interface FaqItem {
  id: string;
  question: string;
  answer: string;
}

/**
 * Questions and answers as plain disclosure widgets (`<details>`/`<summary>`), which open and close
 * with the keyboard and without JavaScript: the product pages' FAQ without Ant Design's Collapse.
 * The items of `openIds` start open. `answerClassName` styles the answers.
 */
export function FaqList({
  items,
  openIds = [],
  answerClassName,
}: {
  items: readonly FaqItem[];
  openIds?: readonly string[];
  answerClassName?: string;
}) {
  return (
    <div className="faq-list">
      {items.map((item) => (
        <details key={item.id} className="faq-list__item" open={openIds.includes(item.id)} data-faq-id={item.id}>
          <summary className="faq-list__question">
            <strong>{item.question}</strong>
          </summary>
          <div className="faq-list__answer">
            <p className={answerClassName}>{item.answer}</p>
          </div>
        </details>
      ))}
    </div>
  );
}
