-- Tetris: the FPGDL program of the paper (../shared/seeds/falling-block-gdl-paper.ja.txt L878–L1058, §5.2), verbatim; line numbers stripped and wrapped lines re-joined, so line N+1 here is the paper's line N.
setFieldSize ( 10 , 20 ) --パズルのプレイフィールドのサイズ指定
blockSize ( 30 ) --ブロックの描画サイズ指定
setSuperRotation( true ) --回転補正を有効にする
setQuickTurn( false ) --クイックターンを無効にする
setClearMode( -1 ) --消去ルールモードを大まかに指定（自らアルゴリズムを組む場合-値）
setHardDrop( true ) --ハードドロップを有効にする

--ブロックを作成
createBlockPattern( 1 )
createBlockPattern( 2 )
createBlockPattern( 3 )
createBlockPattern( 4 )
createBlockPattern( 5 )
createBlockPattern( 6 )
createBlockPattern( 7 )

--ブロックの形状を指定
setBlockForm( 1 , 3 )
setBlockForm( 2 , 3 )
setBlockForm( 3 , 3 )
setBlockForm( 4 , 3 )
setBlockForm( 5 , 3 )
setBlockForm( 6 , 3 )
setBlockForm( 7 , 3 )

--ブロックに色を指定
setBlockFormColor( 1 , 255 , 40 , 255 )
setBlockFormColor( 2 , 255 , 155 , 40 )
setBlockFormColor( 3 , 40 , 40 , 255 )
setBlockFormColor( 4 , 130 , 255 , 40 )
setBlockFormColor( 5 , 255 , 40 , 40 )
setBlockFormColor( 6 , 255 , 255 , 0 )
setBlockFormColor( 7 , 40 , 155 , 255 )

--多次元配列準備
arrays = {}
for p = 1 , 4 do
arrays[p] = {}
end

--ツモの設定
--T=========================================
arrays[0] = { 0 , 0 , 0 , 0 }
arrays[1] = { 0 , -1 , 0 , 0 }
arrays[2] = { -1 , -1 , -1 , 0 }
arrays[3] = { 0 , 0 , 0 , 0 }
setTumo( arrays , 0 , 0 )--回転形状 1
arrays[0] = { 0 , 0 , 0 , 0 }
arrays[1] = { 0 , -1 , 0 , 0 }
arrays[2] = { 0 , -1 , -1 , 0 }
arrays[3] = { 0 , -1 , 0 , 0 }
setTumo( arrays , 0 , 1 )--回転形状 2
arrays[0] = { 0 , 0 , 0 , 0 }
arrays[1] = { 0 , 0 , 0 , 0 }
arrays[2] = { -1 , -1 , -1 , 0 }
arrays[3] = { 0 , -1 , 0 , 0 }
setTumo( arrays , 0 , 2 )--回転形状 3
arrays[0] = { 0 , 0 , 0 , 0 }
arrays[1] = { 0 , -1 , 0 , 0 }
arrays[2] = { -1 , -1 , 0 , 0 }
arrays[3] = { 0 , -1 , 0 , 0 }
setTumo( arrays , 0 , 3 )--回転形状 4

--以下テトリスにおける各形状のツモを定義するため省略--

function update()

--落下させる量を保持する変数
downnum = 0
y = getFieldHeight()
for p = 0 , getFieldHeight() do
y = y - 1
checknum = 0
--横列にブロックが何個いるか捜査
for x = 0 , getFieldWidth() do
if getFieldBlock( x , y ) > 0 and getFieldBlock( x , y ) < 100 then
checknum = checknum + 1
end
end
--横列にブロックが 10個以上いた場合消去処理をする
if checknum >= 10 then
checknum = 10
downnum = downnum + 1
for x = 0 , getFieldWidth() do
setBlockDeleteFlag( x , y )
end
else
--消去された横列より上にあるブロックに落下量を与える
for x = 0 , getFieldWidth() do
setBlockDownCellNum( x , y , downnum )
end
end
end

end
