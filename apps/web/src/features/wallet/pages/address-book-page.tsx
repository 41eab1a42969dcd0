import { walletEndpoints } from '@meridian/contracts/wallet';
import { Button, Form, Input, List, Popconfirm, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { useDeleteAddress } from '../api/delete-address.ts';
import { useAddressBook } from '../api/get-address-book.ts';
import { useWalletCoins } from '../../../lib/get-wallet-coins.ts';
import { walletKeys } from '../api/wallet-keys.ts';

interface AddValues {
  label: string;
  network: string;
  address: string;
}

/** /my/address: saved withdrawal addresses; adding one passes the security check (WITHDRAW_ADDRESS_ADD). */
export function AddressBookPage() {
  const { t } = useTranslation('wallet');
  const book = useAddressBook();
  const coins = useWalletCoins();
  const client = useQueryClient();
  const deleteAddress = useDeleteAddress();
  const [form] = Form.useForm<AddValues>();
  const networks = [...new Set((coins.data ?? []).flatMap((c) => c.nets.map((n) => n.network)))];
  const refresh = () => void client.invalidateQueries({ queryKey: walletKeys.addressBook });
  const addAddress = useSecuredAction({
    endpoint: walletEndpoints.addAddress,
    onSuccess: () => {
      form.resetFields();
      refresh();
    },
  });

  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" style={{ maxWidth: 720 }} data-testid="address-book">
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={(values) =>
              addAddress.run({
                body: { label: values.label.trim(), network: values.network, address: values.address.trim() },
              })
            }
          >
            <Form.Item
              name="label"
              label={t('book.label')}
              rules={[
                { required: true, message: t('book.labelRule') },
                { min: 4, max: 50, message: t('book.labelRule') },
              ]}
            >
              <Input maxLength={50} data-testid="book-label" />
            </Form.Item>
            <Form.Item
              name="network"
              label={t('form.network')}
              rules={[{ required: true, message: t('form.selectNetwork') }]}
            >
              <Select options={networks.map((n) => ({ value: n, label: n }))} data-testid="book-network" />
            </Form.Item>
            <Form.Item
              name="address"
              label={t('withdraw.address')}
              rules={[{ required: true, whitespace: true, message: t('withdraw.addressRequired') }]}
            >
              <Input data-testid="book-address" autoComplete="off" />
            </Form.Item>
            <Button type="primary" htmlType="submit" data-testid="book-submit">
              {t('book.add')}
            </Button>
          </Form>
          <List
            style={{ marginTop: 24 }}
            loading={book.isLoading}
            dataSource={book.data ?? []}
            data-testid="book-list"
            renderItem={(entry) => (
              <List.Item
                actions={[
                  <Popconfirm
                    key="delete"
                    title={t('book.deleteConfirm')}
                    // The promise keeps the confirm button loading until the answer; a refusal was shown by the client.
                    onConfirm={() => deleteAddress.mutateAsync(entry.id).catch(() => undefined)}
                  >
                    <Button size="small" danger data-testid="book-delete">
                      {t('book.delete')}
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={`${entry.label} · ${entry.network}`}
                  description={
                    <>
                      <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
                        {entry.address}
                      </Typography.Text>
                      <div>{t('book.usableAt', { time: dayjs(entry.usableAt).format('YYYY-MM-DD HH:mm') })}</div>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        </div>
      </PageFrame>
    </RequireUser>
  );
}
