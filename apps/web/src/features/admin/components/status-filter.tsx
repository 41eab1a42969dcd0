import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

interface StatusFilterProps<S extends string | number, A extends string | number> {
  /** The chosen status, or `all`. */
  value: S | A;
  /** The statuses a list can be filtered by, in the order shown. */
  statuses: readonly S[];
  /** The page's "every status" value (the option labelled "All"). */
  all: A;
  /** A status's label in the operator's language. */
  labelOf: (status: S) => string;
  /** The new choice; the caller also goes back to the list's first page. */
  onChange: (value: S | A) => void;
}

/**
 * The status filter above a back-office table: "All" and each status, labelled "Status" for screen
 * readers and tests. Shared by the queue pages (withdrawals, deposits, adjustments, screening alerts,
 * wires, cards).
 */
export function StatusFilter<S extends string | number, A extends string | number>(props: StatusFilterProps<S, A>) {
  const { value, statuses, all, labelOf, onChange } = props;
  const { t } = useTranslation('admin');
  return (
    <Select<S | A>
      aria-label={t('common.status')}
      style={{ width: 200 }}
      value={value}
      onChange={onChange}
      options={[
        { value: all, label: t('common.all') },
        ...statuses.map((status) => ({ value: status, label: labelOf(status) })),
      ]}
    />
  );
}
