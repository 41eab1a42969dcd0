import { CheckCircleFilled, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Select, Table, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useLiabilitiesProof } from '../api/get-liabilities-proof.ts';
import { checkProof, type ProofVerdict, saveProofFile } from '../lib/proof-file.ts';

/** A hash shortened for reading: its first and last 8 hex characters. */
const shortHash = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-8)}`;

/**
 * The signed-in user's part of the page: their inclusion proof in the chosen published snapshot
 * (the latest at first; `publishedRoots` lists them, newest first) is fetched and verified in the
 * browser as soon as the page opens (Web Crypto, `verifyProofInBrowser`), and the result explained:
 * the leaf, the path and the published root of that date. The proof can be saved as a file, and a
 * file kept from an earlier day checked the same way.
 */
export function ProofCheck({ publishedRoots }: { publishedRoots: ReadonlyMap<string, string> }) {
  const { t } = useTranslation('liabilities');
  const [date, setDate] = useState<string | undefined>(undefined);
  const dates = [...publishedRoots.keys()];
  const chosenDate = date ?? dates[0];
  const proofCall = useLiabilitiesProof(chosenDate);
  const proof = proofCall.data ?? null;
  const [verdict, setVerdict] = useState<ProofVerdict | null>(null);

  useEffect(() => {
    let isCurrent = true;
    setVerdict(null);
    if (proof)
      void checkProof(proof, publishedRoots).then((checked) => {
        if (isCurrent) setVerdict(checked);
      });
    return () => {
      isCurrent = false;
    };
  }, [proof, publishedRoots]);

  const open = async (file: File) => setVerdict(await checkProof(await file.text(), publishedRoots));

  return (
    <Flex vertical gap={16} data-testid="liabilities-proof">
      <Typography.Paragraph type="secondary">{t('proof.intro')}</Typography.Paragraph>
      <Flex wrap gap={12}>
        <Select
          className="liabilities-date"
          aria-label={t('columns.date')}
          value={chosenDate}
          onChange={setDate}
          options={dates.map((value) => ({ value, label: value }))}
          data-testid="liabilities-date"
        />
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          disabled={!proof}
          onClick={() => proof && saveProofFile(proof)}
          data-testid="liabilities-download"
        >
          {t('proof.download')}
        </Button>
        <Upload
          accept="application/json,.json"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            void open(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="liabilities-open">
            {t('proof.open')}
          </Button>
        </Upload>
      </Flex>
      {proofCall.isPending && <Typography.Text type="secondary">{t('proof.checking')}</Typography.Text>}
      {proofCall.error instanceof ApiError && (
        <Alert type="warning" showIcon title={proofCall.error.message} data-testid="liabilities-proof-refused" />
      )}
      {verdict && <Verdict verdict={verdict} />}
    </Flex>
  );
}

function Verdict({ verdict }: { verdict: ProofVerdict }) {
  const { t } = useTranslation('liabilities');
  if (!verdict.isValid)
    return (
      <Alert
        type="error"
        showIcon
        title={t('proof.fail')}
        description={t(`proof.reasons.${verdict.reason}`)}
        data-testid="liabilities-verdict-fail"
      />
    );
  return (
    <Alert
      type="success"
      showIcon
      icon={<CheckCircleFilled />}
      title={t('proof.pass', { date: verdict.snapshotDate })}
      data-testid="liabilities-verdict-pass"
      description={
        <Flex vertical gap={8}>
          <Typography.Text>{t('proof.verifiedIntro')}</Typography.Text>
          <ol className="liabilities-steps" data-testid="liabilities-verified-steps">
            <li>{t('proof.verifiedLeaf', { hash: shortHash(verdict.leafHash), leafCount: verdict.leafCount })}</li>
            <li>
              {verdict.steps.length === 0
                ? t('proof.verifiedPathNone')
                : t('proof.verifiedPath', { levels: verdict.steps.length })}
            </li>
            <li className="liabilities-wrap">{t('proof.root', { hash: verdict.rootHash })}</li>
            <li>{t('proof.verifiedDate', { date: verdict.snapshotDate })}</li>
          </ol>
          <Table
            size="small"
            pagination={false}
            rowKey="asset"
            dataSource={verdict.balances}
            columns={[
              { title: t('columns.asset'), dataIndex: 'asset' },
              { title: t('columns.yourBalance'), dataIndex: 'amount', align: 'right' },
            ]}
          />
        </Flex>
      }
    />
  );
}
